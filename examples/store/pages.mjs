// The shop's pages: plain HTML, no build step.

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (amount, currency = 'USD') => new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
const statusClass = (order) => escape(order.status.split(' ')[0]);

function layout(title, body, { refresh = false } = {}) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? '<meta http-equiv="refresh" content="1">' : ''}<title>${escape(title)} · Example shop</title>
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
.products{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem}.card{border:1px solid #d1d5db;border-radius:.75rem;padding:1rem}
button{background:#0d9488;color:#fff;border:0;border-radius:.5rem;padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}
table{width:100%;border-collapse:collapse;margin-top:.5rem}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #e5e7eb}
.status{font-weight:600}.Paid{color:#047857}.Failed{color:#b91c1c}.Refunded,.Partially{color:#b45309}
input{font-size:1rem;padding:.4rem;border:1px solid #9ca3af;border-radius:.4rem;max-width:8rem}form.refund{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}</style></head>
<body><header><a href="/">Example shop</a> — pays through Kestrel · <a href="/admin">Admin</a></header><main>${body}</main></body></html>`;
}

export function shopPage(products, orders) {
  const cards = products
    .map(
      (product) => `<div class="card"><h2>${escape(product.name)}</h2><p>${money(product.price)}</p>
<form method="post" action="/buy"><input type="hidden" name="product" value="${escape(product.id)}"><button type="submit" aria-label="Buy ${escape(product.name)}">Buy</button></form></div>`,
    )
    .join('');
  const rows = orders
    .map((order) => `<tr><td><a href="/orders/${escape(order.orderId)}">${escape(order.orderId)}</a></td><td>${escape(order.product.name)}</td><td>${money(order.amount)}</td><td class="status ${statusClass(order)}">${escape(order.status)}</td></tr>`)
    .join('');
  return layout(
    'Shop',
    `<h1>Example shop</h1><div class="products">${cards}</div>
<h2>Orders</h2>${orders.length ? `<table><thead><tr><th>Order</th><th>Item</th><th>Amount</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No orders yet.</p>'}`,
  );
}

export function orderPage(order) {
  const waiting = order.status === 'Awaiting payment';
  return layout(
    `Order ${order.orderId}`,
    `<h1>Order ${escape(order.orderId)}</h1><p>${escape(order.product.name)} · ${money(order.amount)}</p>
<p>Status: <span class="status ${statusClass(order)}" data-testid="order-status">${escape(order.status)}</span></p>
${order.refunded ? `<p>Refunded: ${money(order.refunded)}</p>` : ''}
${waiting ? '<p>Waiting for Kestrel’s signed callback…</p>' : ''}${order.paymentId ? `<p>Kestrel payment <code>${escape(order.paymentId)}</code></p>` : ''}
<p><a href="/">Back to the shop</a></p>`,
    { refresh: waiting },
  );
}

/** The shop's admin: every order, and a refund form (empty amount = what is left) on each paid one. */
export function adminPage(orders) {
  const refundable = (order) => order.paymentId && (order.status === 'Paid' || order.status === 'Partially refunded');
  const rows = orders
    .map((order) => {
      const form = refundable(order)
        ? `<form class="refund" method="post" action="/admin/orders/${escape(encodeURIComponent(order.orderId))}/refund">
<label>Amount <input name="amount" inputmode="decimal" placeholder="${escape((order.amount - order.refunded).toFixed(2))}" aria-label="Refund amount for ${escape(order.orderId)}"></label>
<button type="submit" aria-label="Refund ${escape(order.orderId)}">Refund</button></form>`
        : '';
      const refunded = order.refunded ? `<br><small>${money(order.refunded)} refunded</small>` : '';
      return `<tr><td><a href="/orders/${escape(order.orderId)}">${escape(order.orderId)}</a></td><td>${money(order.amount)}</td><td class="status ${statusClass(order)}" data-testid="admin-status">${escape(order.status)}${refunded}</td><td>${form}</td></tr>`;
    })
    .join('');
  return layout(
    'Admin',
    `<h1>Orders</h1><p>Refunds go back the way the customer paid (card or Kestrel wallet); the order changes when Kestrel's signed refund callback arrives.</p>
${orders.length ? `<table><thead><tr><th>Order</th><th>Amount</th><th>Status</th><th>Refund</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No orders yet.</p>'}`,
    { refresh: orders.some((order) => [...order.refundsAsked].some((refundId) => !order.refundsSeen.has(refundId))) },
  );
}

export const errorPage = (status, message, back = '/') =>
  layout('Error', `<h1>${escape(status)}</h1><p>${escape(message)}</p><p><a href="${escape(back)}">${back === '/' ? 'Back to the shop' : 'Back'}</a></p>`);

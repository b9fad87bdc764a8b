import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a store callback must not reach unless private callbacks are allowed (checked when
 * a store is created and again when each callback is sent, modules/callbacks/delivery.ts): loopback,
 * private networks, link-local (cloud metadata lives there), carrier-grade NAT, "this
 * network", multicast and reserved ranges, and their IPv6 counterparts.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // "Unspecified", loopback and the deprecated IPv4-compatible form (::127.0.0.1); IPv4-mapped
  // addresses (::ffff:a.b.c.d) are judged by BlockList as the IPv4 address they carry.
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

/** How long a create-time lookup may take; a name that does not answer in time is left to the delivery-time guard. */
export const TARGET_LOOKUP_TIMEOUT_MS = 3_000;

/**
 * Whether an http(s) URL names a private, loopback, link-local (cloud metadata) or unique-local
 * host: an address literal in any form the URL parser accepts (decimal, hex, short, IPv4-mapped
 * IPv6), or a name any of whose resolved addresses is one. Only resolves the name; never sends
 * anything to it. A name that does not resolve (or not in time) is not judged here: the guard at
 * delivery checks every address again when it connects, so a name that later resolves to a
 * private address (DNS rebinding) is still refused.
 */
export async function urlTargetsPrivateAddress(target: string): Promise<boolean> {
  let hostname: string;
  try {
    // "LOCALHOST." is localhost: the root's trailing dot and the case do not change the name.
    hostname = new URL(target).hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
  } catch {
    return false;
  }
  if (isIP(hostname)) return isPrivateAddress(hostname);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), TARGET_LOOKUP_TIMEOUT_MS);
  });
  try {
    const addresses = await Promise.race([lookup(hostname, { all: true, verbatim: true }).catch(() => undefined), timeout]);
    return (addresses ?? []).some((entry) => isPrivateAddress(entry.address));
  } finally {
    clearTimeout(timer);
  }
}

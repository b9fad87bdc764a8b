/*
 * How a server-rendered pay page carries the answer it was rendered from (the API writes it,
 * apps/api/src/http/checkout-ssr.ts; the checkout app reads it, checkout-app.tsx): a
 * `<script type="application/json">` with this id holding the JSON body of the page's public
 * GET, its HTTP status in `data-status`.
 */
export const FIRST_READ_ELEMENT_ID = 'first-read';

/** The page's public GET as the server answered it: the HTTP status and the JSON body. */
export interface FirstReadAnswer {
  status: number;
  body: unknown;
}

// Bytes of one exchange as they pass through the rig's client: the request as written and the
// response as read. The transport adds to it while the exchange runs (a stream's received bytes go on
// growing after the exchange has been reported, as its events arrive), so whoever holds it reads the
// bytes so far. Only made when someone watches the client's traffic (an ExchangeObserver).
export interface ByteTally {
  /** Request bytes written: request line, headers and body. */
  sent: number;
  /** Response bytes read: status line, headers, body (a chunked body with its framing). */
  received: number;
}

// The client address for rate limiting: the socket's peer, unless TRUST_PROXY names the
// proxies in front of us. Then X-Forwarded-For is walked from the right, skipping trusted
// proxies: the first address that is not one is the client. For an honest chain this is
// the left-most non-proxy address; unlike taking the left-most entry blindly, a client
// cannot choose its own key by sending a forged X-Forwarded-For.
//
// Addresses are canonicalised (src/net/address.ts), so one address is one rate-limit bucket.
import { parseAddress, type Address } from '../net/address.ts';
import { isTrustedProxy, type TrustProxy } from '../net/trustProxy.ts';

export function clientIp(socketIp: string | undefined, forwardedFor: string | undefined, tp: TrustProxy): string {
  const peer = parseAddress(socketIp ?? '');
  const peerKey = peer?.toString() ?? (socketIp ?? 'unknown').trim();
  if (tp.kind === 'none' || !forwardedFor || !isTrustedProxy(tp, peer)) return peerKey;
  const hops = forwardedFor
    .split(',')
    .map(parseAddress)
    .filter((h): h is Address => h !== null);
  // TRUST_PROXY=true: the left-most hop, which the client itself may have written (see README).
  if (tp.kind === 'all') return hops[0]?.toString() ?? peerKey;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrustedProxy(tp, hops[i]!)) return hops[i]!.toString();
  }
  return hops[0]?.toString() ?? peerKey;
}

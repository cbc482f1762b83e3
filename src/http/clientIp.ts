// The client address for rate limiting: the socket's peer, unless TRUST_PROXY names the
// proxies in front of us. Then X-Forwarded-For is walked from the right, skipping trusted
// proxies: the first address that is not one is the client. For an honest chain this is
// the left-most non-proxy address; unlike taking the left-most entry blindly, a client
// cannot choose its own key by sending a forged X-Forwarded-For.
//
// Addresses are canonicalised (src/net/address.ts), so one address is one rate-limit bucket.
import { isPlainIPv4, parseAddress, type Address } from '../net/address.ts';
import { isTrustedProxy, type TrustProxy } from '../net/trustProxy.ts';

/** A socket peer resolved: its canonical key and whether its X-Forwarded-For is believed. */
interface Peer {
  ip: string | undefined;
  key: string;
  trusted: boolean;
}

function peerOf(socketIp: string | undefined, tp: TrustProxy): Peer {
  const peer = parseAddress(socketIp ?? '');
  return { ip: socketIp, key: peer?.toString() ?? (socketIp ?? 'unknown').trim(), trusted: tp.kind !== 'none' && isTrustedProxy(tp, peer) };
}

export function clientIp(socketIp: string | undefined, forwardedFor: string | undefined, tp: TrustProxy): string {
  return behind(peerOf(socketIp, tp), forwardedFor, tp);
}

/**
 * clientIp for one TRUST_PROXY setting, remembering the last socket peer it resolved: behind a
 * proxy every request comes from the same peer, and parsing and matching it per request was
 * half the cost of the address (issue 18).
 */
export function clientIpFor(tp: TrustProxy): (socketIp: string | undefined, forwardedFor: string | undefined) => string {
  let last: Peer | undefined;
  return (socketIp, forwardedFor) => {
    if (last === undefined || last.ip !== socketIp) last = peerOf(socketIp, tp);
    return behind(last, forwardedFor, tp);
  };
}

function behind(peer: Peer, forwardedFor: string | undefined, tp: TrustProxy): string {
  if (!peer.trusted || !forwardedFor) return peer.key;
  // One plain IPv4 hop (one proxy in front): the client in every TRUST_PROXY mode, trusted or
  // not (the walk below ends on it either way), and already canonical.
  if (!forwardedFor.includes(',')) {
    const hop = forwardedFor.trim();
    if (isPlainIPv4(hop)) return hop;
  }
  const hops = forwardedFor
    .split(',')
    .map(parseAddress)
    .filter((h): h is Address => h !== null);
  // TRUST_PROXY=true: the left-most hop, which the client itself may have written (see README).
  if (tp.kind === 'all') return hops[0]?.toString() ?? peer.key;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrustedProxy(tp, hops[i]!)) return hops[i]!.toString();
  }
  return hops[0]?.toString() ?? peer.key;
}

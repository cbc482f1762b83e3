// The client address for rate limiting: the socket's peer, unless TRUST_PROXY names the
// proxies in front of us. Then X-Forwarded-For is walked from the right, skipping trusted
// proxies: the first address that is not one is the client. For an honest chain this is
// the left-most non-proxy address; unlike taking the left-most entry blindly, a client
// cannot choose its own key by sending a forged X-Forwarded-For.
//
// Every address is reduced to one canonical spelling (ipaddr.js: IPv4-mapped IPv6 becomes
// IPv4, IPv6 is compressed and lower-case), so one address is one rate-limit bucket.
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
export type TrustProxy = { kind: 'none' } | { kind: 'all' } | { kind: 'list'; ranges: Range[] };

/** An address as written by a proxy ("[v6]:port", "v4:port", zone ids, mapped IPv4), parsed; null if it is none. */
function parse(raw: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) s = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  s = s.replace(/%.*$/, ''); // a zone id names a local interface, not a different client
  if (!ipaddr.isValid(s)) return null;
  return ipaddr.process(s);
}

/** The canonical spelling of an address, or the input trimmed when it is not one. */
export function canonicalIp(raw: string): string {
  return parse(raw)?.toString() ?? raw.trim();
}

/** TRUST_PROXY: unset/false = none; true = every hop; otherwise a comma list of IPs and CIDRs. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return { kind: 'none' };
  if (v === 'true') return { kind: 'all' };
  const ranges: Range[] = [];
  for (const raw of v.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [addr, bits] = raw.split('/');
    const ip = parse(addr ?? '');
    if (!ip) throw new Error(`TRUST_PROXY: '${raw}' is not an IP address or CIDR range`);
    const max = ip.kind() === 'ipv6' ? 128 : 32;
    let prefix = max;
    if (bits !== undefined) {
      prefix = Number(bits);
      // A mapped IPv4 range (::ffff:10.0.0.0/104) was reduced to IPv4 by parse(): shift its prefix too.
      if (ip.kind() === 'ipv4' && ipaddr.IPv6.isValid(addr!) && prefix >= 96) prefix -= 96;
      if (!/^\d+$/.test(bits) || prefix < 0 || prefix > max) throw new Error(`TRUST_PROXY: bad prefix in '${raw}'`);
    }
    ranges.push([ip, prefix]);
  }
  return { kind: 'list', ranges };
}

function trusted(tp: TrustProxy, ip: ipaddr.IPv4 | ipaddr.IPv6 | null): boolean {
  if (tp.kind === 'all') return true;
  if (tp.kind === 'none' || !ip) return false;
  return tp.ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
}

export function clientIp(socketIp: string | undefined, forwardedFor: string | undefined, tp: TrustProxy): string {
  const peer = parse(socketIp ?? '');
  const peerKey = peer?.toString() ?? (socketIp ?? 'unknown').trim();
  if (tp.kind === 'none' || !forwardedFor || !trusted(tp, peer)) return peerKey;
  const hops = forwardedFor
    .split(',')
    .map(parse)
    .filter((h): h is ipaddr.IPv4 | ipaddr.IPv6 => h !== null);
  // TRUST_PROXY=true: the left-most hop, which the client itself may have written (see README).
  if (tp.kind === 'all') return hops[0]?.toString() ?? peerKey;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted(tp, hops[i]!)) return hops[i]!.toString();
  }
  return hops[0]?.toString() ?? peerKey;
}

// IP addresses as proxies and sockets write them, reduced to one canonical spelling
// (ipaddr.js: IPv4-mapped IPv6 becomes IPv4, IPv6 is compressed and lower-case), so one
// address is one rate-limit bucket and one TRUST_PROXY match.
import ipaddr from 'ipaddr.js';

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Plain dotted-quad IPv4 (no leading zeros): already canonical, built without ipaddr.js's parser (the hot path of every rate-limited request). */
const PLAIN_V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A plain dotted-quad IPv4 address, which is its own canonical spelling. */
export function isPlainIPv4(s: string): boolean {
  return PLAIN_V4.test(s);
}

/** An address as written by a proxy ("[v6]:port", "v4:port", zone ids, mapped IPv4), parsed; null if it is none. */
export function parseAddress(raw: string): Address | null {
  let s = raw.trim();
  const v4 = PLAIN_V4.exec(s);
  if (v4) return new ipaddr.IPv4([Number(v4[1]), Number(v4[2]), Number(v4[3]), Number(v4[4])]);
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) s = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  s = s.replace(/%.*$/, ''); // a zone id names a local interface, not a different client
  if (!ipaddr.isValid(s)) return null;
  return ipaddr.process(s);
}

/** The canonical spelling of an address, or the input trimmed when it is not one. */
export function canonicalIp(raw: string): string {
  return parseAddress(raw)?.toString() ?? raw.trim();
}

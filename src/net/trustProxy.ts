// TRUST_PROXY: which hops' X-Forwarded-For entries are believed. Parsed with the rest of
// the configuration (src/config.ts), applied per request by src/http/clientIp.ts.
import ipaddr from 'ipaddr.js';
import { parseAddress, type Address } from './address.ts';

type Range = [Address, number];
export type TrustProxy = { kind: 'none' } | { kind: 'all' } | { kind: 'list'; ranges: Range[] };

/**
 * Unset/false = none; true = every hop; otherwise a comma list of IPs and CIDRs. Throws on
 * an entry that is neither; the message names the entry, the caller names the variable.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return { kind: 'none' };
  if (v === 'true') return { kind: 'all' };
  const ranges: Range[] = [];
  for (const raw of v.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [addr, bits] = raw.split('/');
    const ip = parseAddress(addr ?? '');
    if (!ip) throw new Error(`'${raw}' is not an IP address or CIDR range`);
    const max = ip.kind() === 'ipv6' ? 128 : 32;
    let prefix = max;
    if (bits !== undefined) {
      prefix = Number(bits);
      // A mapped IPv4 range (::ffff:10.0.0.0/104) was reduced to IPv4 by parseAddress(): shift its prefix too.
      if (ip.kind() === 'ipv4' && ipaddr.IPv6.isValid(addr!) && prefix >= 96) prefix -= 96;
      if (!/^\d+$/.test(bits) || prefix < 0 || prefix > max) throw new Error(`bad prefix in '${raw}'`);
    }
    ranges.push([ip, prefix]);
  }
  return { kind: 'list', ranges };
}

/** True when `ip` is one of the trusted proxies. */
export function isTrustedProxy(tp: TrustProxy, ip: Address | null): boolean {
  if (tp.kind === 'all') return true;
  if (tp.kind === 'none' || !ip) return false;
  return tp.ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
}

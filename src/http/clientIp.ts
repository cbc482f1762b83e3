// The client address for rate limiting: the socket's peer, unless TRUST_PROXY names the
// proxies in front of us. Then X-Forwarded-For is walked from the right, skipping trusted
// proxies: the first address that is not one is the client. For an honest chain this is
// the left-most non-proxy address; unlike taking the left-most entry blindly, a client
// cannot choose its own key by sending a forged X-Forwarded-For.
import { BlockList, isIP } from 'node:net';

export type TrustProxy = { kind: 'none' } | { kind: 'all' } | { kind: 'list'; list: BlockList };

/** TRUST_PROXY: unset/false = none; true = every hop; otherwise a comma list of IPs and CIDRs. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return { kind: 'none' };
  if (v === 'true') return { kind: 'all' };
  const list = new BlockList();
  for (const raw of v.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [addr, bits] = raw.split('/');
    const family = isIP(addr ?? '');
    if (!family) throw new Error(`TRUST_PROXY: '${raw}' is not an IP address or CIDR range`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits !== undefined) {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) throw new Error(`TRUST_PROXY: bad prefix in '${raw}'`);
      list.addSubnet(addr!, prefix, type);
    } else list.addAddress(addr!, type);
  }
  return { kind: 'list', list };
}

function normalise(ip: string): string {
  const s = ip.trim().replace(/^\[|\]$/g, '');
  return s.startsWith('::ffff:') && isIP(s.slice(7)) === 4 ? s.slice(7) : s;
}

function trusted(tp: TrustProxy, ip: string): boolean {
  if (tp.kind === 'all') return true;
  if (tp.kind === 'none') return false;
  const family = isIP(ip);
  return family !== 0 && tp.list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

export function clientIp(socketIp: string | undefined, forwardedFor: string | undefined, tp: TrustProxy): string {
  const peer = normalise(socketIp ?? 'unknown');
  if (tp.kind === 'none' || !forwardedFor || !trusted(tp, peer)) return peer;
  const hops = forwardedFor.split(',').map(normalise).filter((h) => isIP(h));
  if (tp.kind === 'all') return hops[0] ?? peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted(tp, hops[i]!)) return hops[i]!;
  }
  return hops[0] ?? peer;
}

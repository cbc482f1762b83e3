import { describe, expect, it } from 'vitest';
import { clientIp, clientIpFor } from '../../src/http/clientIp.ts';
import { canonicalIp } from '../../src/net/address.ts';
import { parseTrustProxy } from '../../src/net/trustProxy.ts';

describe('client address', () => {
  it('is the socket peer unless proxies are trusted', () => {
    expect(clientIp('203.0.113.9', '198.51.100.1', parseTrustProxy(undefined))).toBe('203.0.113.9');
    expect(clientIp('::ffff:127.0.0.1', undefined, parseTrustProxy('false'))).toBe('127.0.0.1');
  });

  it('walks X-Forwarded-For from the right past trusted proxies', () => {
    const tp = parseTrustProxy('10.0.0.0/8, 127.0.0.1');
    expect(clientIp('127.0.0.1', '198.51.100.7, 10.1.2.3', tp)).toBe('198.51.100.7');
    // A forged left-most entry does not choose the key: the nearest untrusted hop does.
    expect(clientIp('127.0.0.1', '1.2.3.4, 198.51.100.7, 10.1.2.3', tp)).toBe('198.51.100.7');
    // A peer that is not a trusted proxy cannot supply X-Forwarded-For at all.
    expect(clientIp('203.0.113.9', '198.51.100.7', tp)).toBe('203.0.113.9');
    // Only proxies in the chain: the left-most is the best we know.
    expect(clientIp('127.0.0.1', '10.9.9.9, 10.1.2.3', tp)).toBe('10.9.9.9');
  });

  it('TRUST_PROXY=true trusts every hop and takes the left-most address', () => {
    expect(clientIp('10.0.0.1', ' 198.51.100.7 , 10.1.2.3', parseTrustProxy('true'))).toBe('198.51.100.7');
  });

  it('one address is one bucket, however it is spelt', () => {
    const spellings = ['2001:db8::1', '2001:DB8:0:0:0:0:0:1', '2001:0db8:0000::0001', '[2001:db8::1]', '[2001:db8::1]:443', '2001:db8::1%eth0'];
    expect(new Set(spellings.map(canonicalIp))).toEqual(new Set(['2001:db8::1']));
    const v4 = ['192.0.2.4', '::ffff:192.0.2.4', '::FFFF:c000:0204', '[::ffff:192.0.2.4]:8080', '192.0.2.4:5555'];
    expect(new Set(v4.map(canonicalIp))).toEqual(new Set(['192.0.2.4']));
    // The same holds for the socket peer and for forwarded hops, in every TRUST_PROXY mode.
    expect(clientIp('2001:DB8::0:1', undefined, parseTrustProxy(undefined))).toBe('2001:db8::1');
    expect(clientIp('::ffff:10.0.0.1', '::ffff:198.51.100.7', parseTrustProxy('10.0.0.0/8'))).toBe('198.51.100.7');
    expect(clientIp('127.0.0.1', '2001:0DB8::1, 127.0.0.1', parseTrustProxy('127.0.0.1'))).toBe('2001:db8::1');
    expect(clientIp('10.0.0.1', '[2001:db8:0::1]:1234', parseTrustProxy('true'))).toBe('2001:db8::1');
  });

  it('trusted proxies are matched in any spelling, IPv6 ranges included', () => {
    const tp = parseTrustProxy('::ffff:10.0.0.0/104, fd00::/8');
    expect(clientIp('10.2.3.4', '198.51.100.7', tp)).toBe('198.51.100.7');
    expect(clientIp('::ffff:10.2.3.4', '198.51.100.7', tp)).toBe('198.51.100.7');
    expect(clientIp('FD12::1', '198.51.100.8, fd00::2', tp)).toBe('198.51.100.8');
    expect(clientIp('2001:db8::9', '198.51.100.8', tp)).toBe('2001:db8::9');
  });

  it('ignores hops that are not addresses', () => {
    expect(clientIp('127.0.0.1', 'unknown, _hidden, 198.51.100.7', parseTrustProxy('127.0.0.1'))).toBe('198.51.100.7');
    expect(clientIp('127.0.0.1', 'garbage', parseTrustProxy('true'))).toBe('127.0.0.1');
  });

  it('clientIpFor (which remembers the last peer) answers as clientIp, peer after peer', () => {
    const requests: [string | undefined, string | undefined][] = [
      ['127.0.0.1', '198.51.100.7'],
      ['127.0.0.1', ' 198.51.100.8 '],
      ['127.0.0.1', '10.1.2.3'],
      ['203.0.113.9', '198.51.100.7'],
      ['127.0.0.1', '198.51.100.7, 10.1.2.3'],
      ['10.0.0.1', '1.2.3.4, 198.51.100.7'],
      ['10.0.0.1', '010.0.0.1'],
      ['10.0.0.1', 'garbage'],
      ['::ffff:127.0.0.1', '::ffff:198.51.100.9'],
      [undefined, '198.51.100.7'],
      ['127.0.0.1', undefined],
      ['2001:DB8::0:1', '192.0.2.4:5555'],
    ];
    for (const setting of [undefined, 'true', '10.0.0.0/8, 127.0.0.1', '::ffff:10.0.0.0/104, fd00::/8']) {
      const tp = parseTrustProxy(setting);
      const remembering = clientIpFor(tp);
      for (const [peer, xff] of [...requests, ...requests.reverse()]) expect(remembering(peer, xff), `${setting} ${peer} ${xff}`).toBe(clientIp(peer, xff, tp));
    }
  });

  it('rejects a malformed TRUST_PROXY', () => {
    expect(() => parseTrustProxy('10.0.0.0/40')).toThrow(/bad prefix/);
    expect(() => parseTrustProxy('10.0.0.0/x')).toThrow(/bad prefix/);
    expect(() => parseTrustProxy('proxy.example')).toThrow(/not an IP/);
  });
});

describe('parseAddress fast path for plain IPv4', () => {
  it('gives the same canonical address as ipaddr.js for plain, odd and invalid spellings', async () => {
    const { parseAddress } = await import('../../src/net/address.ts');
    const ipaddr = (await import('ipaddr.js')).default;
    const slow = (s: string) => (ipaddr.isValid(s.trim()) ? ipaddr.process(s.trim()).toString() : null);
    for (const s of ['10.0.0.1', ' 192.168.1.255 ', '0.0.0.0', '255.255.255.255', '1.2.3.4', '99.100.199.250']) {
      expect(parseAddress(s)?.toString(), s).toBe(slow(s));
      expect(parseAddress(s)?.kind()).toBe('ipv4');
    }
    // Not plain: left to ipaddr.js, which canonicalises or refuses them.
    expect(parseAddress('010.0.0.1')?.toString()).toBe(slow('010.0.0.1'));
    expect(parseAddress('256.0.0.1')).toBeNull();
    expect(parseAddress('1.2.3')?.toString()).toBe(slow('1.2.3'));
    expect(parseAddress('::ffff:10.0.0.1')?.toString()).toBe('10.0.0.1');
  });
});

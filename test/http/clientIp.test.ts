import { describe, expect, it } from 'vitest';
import { clientIp, parseTrustProxy } from '../../src/http/clientIp.ts';

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

  it('rejects a malformed TRUST_PROXY', () => {
    expect(() => parseTrustProxy('10.0.0.0/40')).toThrow(/bad prefix/);
    expect(() => parseTrustProxy('proxy.example')).toThrow(/not an IP/);
  });
});

// A FHIR client library from npm (fhir-kit-client) drives the server as terminology clients
// do; every resource it gets back validates as R4. Also: the service's rate limit and
// request ids apply under /fhir as everywhere.
import { Client } from 'fhir-kit-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { createRateLimiter } from '../../src/http/rateLimit.ts';
import { parseTrustProxy } from '../../src/net/trustProxy.ts';
import { expectValidR4 } from './r4.ts';

const MDR = 'https://www.meddra.org';
const PER_MINUTE = 40;

let t: TestApp;
let base: string;
let close: () => Promise<void>;
let client: Client;

beforeAll(async () => {
  t = await createTestApp({ app: { rateLimit: { limiter: createRateLimiter({ perMinute: PER_MINUTE }), trustProxy: parseTrustProxy('127.0.0.1') } }, readOnly: true });
  ({ url: base, close } = await listen(t.app));
  client = new Client({ baseUrl: `${base}/fhir`, customHeaders: { 'X-Forwarded-For': '198.51.100.1' } });
});
afterAll(async () => {
  await close?.();
  await t?.cleanup();
});

const param = (p: any, name: string) => p.parameter.find((x: any) => x.name === name);

describe('fhir-kit-client', () => {
  it('reads the capability statement and searches the code systems', async () => {
    const cs: any = await client.capabilityStatement();
    expectValidR4(cs);
    expect(cs.fhirVersion).toBe('4.0.1');
    const bundle: any = await client.resourceSearch({ resourceType: 'CodeSystem', searchParams: { url: MDR } });
    expectValidR4(bundle);
    expect(bundle.total).toBe(3);
    const one: any = await client.read({ resourceType: 'CodeSystem', id: bundle.entry[0].resource.id });
    expectValidR4(one);
  });

  it('$lookup (GET and POST)', async () => {
    const got: any = await client.operation({ name: '$lookup', resourceType: 'CodeSystem', method: 'GET', input: { system: MDR, code: '10019211' } });
    expectValidR4(got);
    expect(param(got, 'display').valueString).toBe('Headache');
    const posted: any = await client.operation({
      name: '$lookup',
      resourceType: 'CodeSystem',
      input: { resourceType: 'Parameters', parameter: [{ name: 'system', valueUri: MDR }, { name: 'code', valueCode: '10019211' }, { name: 'version', valueString: '4.03' }] },
    });
    expectValidR4(posted);
    expect(param(posted, 'version').valueString).toBe('4.03');
  });

  it('$validate-code', async () => {
    const good: any = await client.operation({ name: '$validate-code', resourceType: 'CodeSystem', method: 'GET', input: { url: MDR, code: '10019211', display: 'Headache' } });
    expectValidR4(good);
    expect(param(good, 'result').valueBoolean).toBe(true);
    const wrong: any = await client.operation({ name: '$validate-code', resourceType: 'CodeSystem', method: 'GET', input: { url: MDR, code: '10019211', display: 'Migraine' } });
    expectValidR4(wrong);
    expect(param(wrong, 'result').valueBoolean).toBe(false);
  });

  it('$expand: typeahead over the whole release, then a subtree', async () => {
    const vs: any = await client.operation({ name: '$expand', resourceType: 'ValueSet', method: 'GET', input: { url: `${MDR}?fhir_vs`, filter: 'headake', count: 5 } });
    expectValidR4(vs);
    expect(vs.expansion.contains[0].display).toBe('Headache');
    const sub: any = await client.operation({ name: '$expand', resourceType: 'ValueSet', method: 'GET', input: { url: `${MDR}?fhir_vs=isa/10019211` } });
    expectValidR4(sub);
    expect(sub.expansion.contains[0].code).toBe('10019211');
  });

  it('an error reaches the client as an OperationOutcome with the status', async () => {
    const err: any = await client.operation({ name: '$lookup', resourceType: 'CodeSystem', method: 'GET', input: { system: MDR, code: '12345' } }).catch((e: unknown) => e);
    expect(err.response.status).toBe(404);
    expect(err.response.data.resourceType).toBe('OperationOutcome');
    expectValidR4(err.response.data);
  });
});

describe('service-wide middleware under /fhir', () => {
  it('rate limit: the per-client budget counts FHIR requests and refuses with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE + 2; i++) {
      const res = await fetch(`${base}/fhir/metadata`, { headers: { 'X-Forwarded-For': '198.51.100.2' } });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toBeTruthy();
        expect(res.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
        const body = (await res.clone().json()) as { resourceType: string; issue: { code: string }[] };
        expect(body.resourceType).toBe('OperationOutcome');
        expect(body.issue[0]!.code).toBe('throttled');
      } else await res.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(PER_MINUTE);
    expect(statuses.slice(PER_MINUTE)).toEqual([429, 429]);
  });

  it('request ids and security headers', async () => {
    const res = await fetch(`${base}/fhir/metadata`, { headers: { 'X-Request-Id': 'fhir-client-0001', 'X-Forwarded-For': '198.51.100.3' } });
    expect(res.headers.get('x-request-id')).toBe('fhir-client-0001');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

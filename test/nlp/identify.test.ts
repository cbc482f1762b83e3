import { describe, expect, it } from 'vitest';
import { identifyEvents } from '../../src/nlp/index.ts';
import { demoVocabulary } from './demo.ts';

const vocab = demoVocabulary();

describe('identifyEvents (demo release)', () => {
  it('finds one event about vomiting in the brief example, not the negated rash', () => {
    const text = 'Two days after the second dose the patient vomited repeatedly and was admitted overnight; no rash';
    const events = identifyEvents(text, vocab);
    expect(events).toHaveLength(1);
    const [e] = events;
    expect(e!.description).toMatch(/vomited repeatedly/);
    expect(e!.description).not.toMatch(/rash/i);
    expect(e!.reasons).toContain('vomited');
    for (const r of e!.reasons) expect(text).toContain(r);
    expect(text.slice(e!.start, e!.end)).toContain('vomited');
    expect(e!.confidence).toBeGreaterThan(0.5);
    expect(e!.confidence).toBeLessThanOrEqual(1);
  });

  it('an article after the conjunction keeps the list a list ("a headache and a fever")', () => {
    expect(identifyEvents('She had a headache and a fever.', vocab).map((e) => e.description)).toEqual(['She had a headache.', 'She had a fever.']);
    expect(identifyEvents('Patient reported rash and a headache.', vocab).map((e) => e.description)).toEqual(['Patient reported rash.', 'Patient reported headache.']);
  });

  it('splits a list into self-contained statements sharing subject and circumstances', () => {
    const text = 'After the vaccine she developed nausea, vomiting and diarrhoea within 2 hours.';
    const events = identifyEvents(text, vocab);
    expect(events.map((e) => e.description)).toEqual([
      'After the vaccine she developed nausea within 2 hours.',
      'After the vaccine she developed vomiting within 2 hours.',
      'After the vaccine she developed diarrhoea within 2 hours.',
    ]);
  });

  it('handles lay language and typos, one event per finding across sentences', () => {
    const text = 'Tummy ache since Monday. Then diarhea x6 per day. The tummy ache got worse.';
    const events = identifyEvents(text, vocab);
    expect(events).toHaveLength(2);
    expect(events[0]!.reasons).toEqual(expect.arrayContaining(['Tummy ache', 'tummy ache']));
    expect(events[1]!.description).toMatch(/^Diarhea x6 per day\.$/);
  });

  it.each([
    'Patient denies chest pain and headache.',
    'No fever, no rash.',
    'History of migraine and prior seizures.',
    'Admitted to rule out myocardial infarction.',
    'Negative for pneumonia.',
    'There was no evidence of hepatic failure.',
    'Family history of stroke.',
    'If a rash develops, stop the drug.',
  ])('reports no event for: %s', (text) => {
    expect(identifyEvents(text, vocab)).toEqual([]);
  });

  it('keeps what is affirmed next to what is denied', () => {
    const events = identifyEvents('Denies headache but reports dizziness; no vomiting.', vocab);
    expect(events).toHaveLength(1);
    expect(events[0]!.description).toMatch(/dizziness/);
  });

  it('returns statements, never terminology codes', () => {
    const events = identifyEvents('Patient had a seizure and an MI; died two days later.', vocab);
    expect(events.length).toBeGreaterThanOrEqual(2);
    const json = JSON.stringify(events);
    expect(json).not.toMatch(/\d{8}/);
    expect(Object.keys(events[0]!).sort()).toEqual(['confidence', 'description', 'end', 'mentions', 'reasons', 'start']);
  });

  it('catches an unknown finding stated with a reporting verb, at lower confidence', () => {
    const events = identifyEvents('She developed a strange metallic aftertaste after the dose.', vocab);
    expect(events).toHaveLength(1);
    expect(events[0]!.confidence).toBeLessThan(0.5);
  });
});

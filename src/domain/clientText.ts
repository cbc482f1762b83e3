// Client values quoted back in error messages: at most a short, clipped form, so an answer
// never echoes a 100 KB word, a header or a body back (nor grows with the input).

/** Longest part of one client value an error message may quote. */
export const MAX_QUOTED = 40;

/** The value itself when short, else its first MAX_QUOTED characters and an ellipsis. */
export function clip(value: unknown, max = MAX_QUOTED): string {
  const s = String(value);
  if (s.length <= max) return s;
  // Never split a surrogate pair: the message must stay valid UTF-16 for JSON.
  let end = max;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}

// A double-quoted string inside a message (graphql-js quotes names and string values with JSON escapes).
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;
// graphql-js prints other client values (lists, objects, numbers) after these words, up to
// the next "; " (a reason follows), ` at "path"`, or the final full stop ("Expected value of type" is not one).
const PRINTED = /((?:value:?|found) (?!of type))(.+?)(?=(?: at "[^"]*")?; |\.?$)/g;
/** A quoted value already clipped: quotes, MAX_QUOTED characters, ellipsis. */
const CLIPPED_QUOTE = MAX_QUOTED + 3;
/** Past this a message is cut whatever it holds: graphql-js's own words are far shorter. */
const MAX_MESSAGE = 400;

/**
 * A message written by a library (graphql-js, Yoga) with every client value in it clipped:
 * quoted names and strings, and printed literals ("String cannot represent a non string
 * value: [1, 1, …]", "Variable "$v" got invalid value …").
 */
export function clipMessage(message: string): string {
  const quoted = message.replace(QUOTED, (m, inner: string) => (inner.length > MAX_QUOTED ? `"${clip(inner)}"` : m));
  const printed = quoted.replace(PRINTED, (m, lead: string, value: string) => (value.length > CLIPPED_QUOTE ? `${lead}${clip(value)}` : m));
  return clip(printed, MAX_MESSAGE);
}

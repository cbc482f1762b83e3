// The category rule of an algorithmic SMQ (smq_list.asc, smq_algorithm), parsed by a small
// recursive-descent parser into a tree and evaluated per case — never eval'd.
//
// Grammar (case-insensitive keywords, whitespace free):
//   expr    := and ( ('or' | '|' | '||') and )*
//   and     := unary ( ('and' | '&' | '&&' | '*') unary )*
//   unary   := ('not' | '!') unary | primary
//   primary := CATEGORY | '(' expr ')' | weight
//   weight  := ('WEIGHT' | 'SUM' | 'W') ('>=' | '>' | '=' | '<=' | '<') INTEGER
//   CATEGORY := one letter A–Z (a case "has" the category when one of its rows matches an active term of it)
// `not` binds tightest, then `and`, then `or`. The weight of a case is the sum, over the
// distinct categories it has, of the highest weight among its matching terms of that category.
// `N` or an empty string means "not algorithmic".

export type AlgorithmNode =
  | { kind: 'category'; name: string }
  | { kind: 'not'; arg: AlgorithmNode }
  | { kind: 'and' | 'or'; args: AlgorithmNode[] }
  | { kind: 'weight'; op: '>=' | '>' | '=' | '<=' | '<'; value: number };

export class AlgorithmSyntaxError extends Error {}

/** Whether an smq_algorithm value describes a rule (N and empty do not). */
export const isAlgorithmic = (algorithm: string): boolean => {
  const a = algorithm.trim().toUpperCase();
  return a !== '' && a !== 'N';
};

/** Longest algorithm text accepted (real ones are under 100 characters). */
const MAX_ALGORITHM = 2000;
const MAX_DEPTH = 50;

type Token = { t: 'cat' | 'and' | 'or' | 'not' | '(' | ')' | 'weight' | 'op' | 'num'; v: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  const re = /\s*(?:(>=|<=|&&|\|\||[()&|!*<>=])|([A-Za-z]+)|([0-9]+))/y;
  let i = 0;
  while (i < src.length) {
    if (/^\s*$/.test(src.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(src);
    if (!m) throw new AlgorithmSyntaxError(`unexpected character at position ${i + 1}`);
    i = re.lastIndex;
    const [, sym, word, num] = m;
    if (sym) {
      if (sym === '(' || sym === ')') out.push({ t: sym, v: sym });
      else if (sym === '&' || sym === '&&' || sym === '*') out.push({ t: 'and', v: sym });
      else if (sym === '|' || sym === '||') out.push({ t: 'or', v: sym });
      else if (sym === '!') out.push({ t: 'not', v: sym });
      else out.push({ t: 'op', v: sym });
    } else if (word) {
      const w = word.toUpperCase();
      if (w === 'AND') out.push({ t: 'and', v: w });
      else if (w === 'OR') out.push({ t: 'or', v: w });
      else if (w === 'NOT') out.push({ t: 'not', v: w });
      else if (w === 'WEIGHT' || w === 'SUM' || w === 'W') out.push({ t: 'weight', v: w });
      else if (w.length === 1) out.push({ t: 'cat', v: w });
      else throw new AlgorithmSyntaxError(`unknown word '${word.slice(0, 20)}'`);
    } else out.push({ t: 'num', v: num! });
  }
  return out;
}

/** Parses an smq_algorithm expression; throws AlgorithmSyntaxError. */
export function parseAlgorithm(src: string): AlgorithmNode {
  if (src.length > MAX_ALGORITHM) throw new AlgorithmSyntaxError(`longer than ${MAX_ALGORITHM} characters`);
  const toks = tokenize(src);
  let p = 0;
  const peek = () => toks[p];
  const expect = (t: Token['t']): Token => {
    const k = toks[p];
    if (!k || k.t !== t) throw new AlgorithmSyntaxError(k ? `unexpected '${k.v}'` : 'unexpected end');
    p++;
    return k;
  };
  const expr = (d: number): AlgorithmNode => {
    if (d > MAX_DEPTH) throw new AlgorithmSyntaxError('nested too deeply');
    const args = [and(d)];
    while (peek()?.t === 'or') {
      p++;
      args.push(and(d));
    }
    return args.length === 1 ? args[0]! : { kind: 'or', args };
  };
  const and = (d: number): AlgorithmNode => {
    const args = [unary(d)];
    while (peek()?.t === 'and') {
      p++;
      args.push(unary(d));
    }
    return args.length === 1 ? args[0]! : { kind: 'and', args };
  };
  const unary = (d: number): AlgorithmNode => {
    if (peek()?.t === 'not') {
      p++;
      if (d > MAX_DEPTH) throw new AlgorithmSyntaxError('nested too deeply');
      return { kind: 'not', arg: unary(d + 1) };
    }
    return primary(d);
  };
  const primary = (d: number): AlgorithmNode => {
    const k = peek();
    if (!k) throw new AlgorithmSyntaxError('unexpected end');
    if (k.t === 'cat') {
      p++;
      return { kind: 'category', name: k.v };
    }
    if (k.t === '(') {
      p++;
      const e = expr(d + 1);
      expect(')');
      return e;
    }
    if (k.t === 'weight') {
      p++;
      const op = expect('op').v as '>=' | '>' | '=' | '<=' | '<';
      const value = Number(expect('num').v);
      return { kind: 'weight', op, value };
    }
    throw new AlgorithmSyntaxError(`unexpected '${k.v}'`);
  };
  const tree = expr(0);
  if (p < toks.length) throw new AlgorithmSyntaxError(`unexpected '${toks[p]!.v}'`);
  return tree;
}

/** Evaluates a rule for one case: the categories it has (with their weights). */
export function evaluateAlgorithm(node: AlgorithmNode, categories: ReadonlyMap<string, number>): boolean {
  switch (node.kind) {
    case 'category':
      return categories.has(node.name);
    case 'not':
      return !evaluateAlgorithm(node.arg, categories);
    case 'and':
      return node.args.every((a) => evaluateAlgorithm(a, categories));
    case 'or':
      return node.args.some((a) => evaluateAlgorithm(a, categories));
    case 'weight': {
      let sum = 0;
      for (const w of categories.values()) sum += w;
      switch (node.op) {
        case '>=':
          return sum >= node.value;
        case '>':
          return sum > node.value;
        case '=':
          return sum === node.value;
        case '<=':
          return sum <= node.value;
        case '<':
          return sum < node.value;
      }
    }
  }
}

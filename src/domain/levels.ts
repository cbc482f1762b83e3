export const LEVELS = ['SOC', 'HLGT', 'HLT', 'PT', 'LLT'] as const;
export type Level = (typeof LEVELS)[number];

export function isLevel(s: string): s is Level {
  return (LEVELS as readonly string[]).includes(s);
}

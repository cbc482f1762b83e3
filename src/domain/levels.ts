export const LEVELS = ['SOC', 'HLGT', 'HLT', 'PT', 'LLT'] as const;
export type Level = (typeof LEVELS)[number];

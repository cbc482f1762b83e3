import { builder } from '../builder.ts';
import { LEVELS } from '../../domain/levels.ts';

export const LevelEnum = builder.enumType('Level', {
  description: 'Hierarchy level: SOC (system organ class) → HLGT → HLT → PT (preferred term) → LLT (lowest level term).',
  values: LEVELS,
});

export const CodeStatusEnum = builder.enumType('CodeStatus', {
  description: 'Lifecycle state. Only LLTs become non-current; every other level is always current.',
  values: ['CURRENT', 'NON_CURRENT'] as const,
});

export const RelationshipTypeEnum = builder.enumType('RelationshipType', {
  description: 'Type of a hierarchy edge. SOC_TO_PT is the link from a PT to its primary SOC.',
  values: ['SOC_TO_HLGT', 'HLGT_TO_HLT', 'HLT_TO_PT', 'PT_TO_LLT', 'SOC_TO_PT'] as const,
});

export const MatchTypeEnum = builder.enumType('MatchType', {
  description: 'How a search query matched a name, best first.',
  values: {
    EXACT: { description: 'the whole name equals the query (case and accents ignored)' },
    PREFIX: { description: 'the name starts with the query' },
    WORD_PREFIX: { description: 'a word inside the name starts with the query' },
    FUZZY: { description: 'typo-tolerant trigram match' },
  } as const,
});

/** Carried by every AI response (body field `notice` and header X-AI-Notice). */
export const AI_NOTICE =
  'Assessments are AI-generated and must be reviewed by a qualified person before use in regulatory submissions.';

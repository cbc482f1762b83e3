-- SMQ content: a PT (term_level 4) and its own LLT (term_level 5) share a code, so the
-- level joins the key of smq_term.
ALTER TABLE "smq_term" DROP CONSTRAINT "smq_term_pkey";
ALTER TABLE "smq_term" ADD CONSTRAINT "smq_term_pkey" PRIMARY KEY ("release_id", "smq_code", "term_level", "term_code");

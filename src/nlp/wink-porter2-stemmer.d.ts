// Types for wink-porter2-stemmer (the package ships none): Porter2 ("English") stemmer.
declare module 'wink-porter2-stemmer' {
  /** Stems one lower-case English word, e.g. "vomiting" → "vomit". */
  function stem(word: string): string;
  export default stem;
}

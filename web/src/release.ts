// A hosted release as the explorer's views receive it from the shell (main.tsx), which lists
// them; its own module so the views need not import the shell that imports them.
export interface Release {
  version: string;
  releaseDate: string | null;
  isLatest: boolean;
  /** BCP 47 tags of the hosted languages, primary first. */
  languages: string[];
}

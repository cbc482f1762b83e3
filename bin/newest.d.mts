/** The newest modification time under a file or a folder, in ms (0 when missing). */
export function newestMtime(p: string): number;

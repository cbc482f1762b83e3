/** Rate headers appear once a client has used three quarters of its window. */
export const headerThreshold = (limit: number) => Math.floor(limit / 4);

// V8 flags for the Node processes the suite starts to check behaviour (CLI commands, servers of
// tests about something else, the template builder). `--liftoff-only`: PGlite's WebAssembly runs
// on V8's baseline compiler, with no optimising tier-up compiled on background threads. A process
// start then costs about 40 % less CPU (`serve` on the demo store 6.0-7.2 -> 3.9-4.2 s, a first
// start with the demo import 12.3-14.1 -> 10.5-11.3 s; Node 20, `/usr/bin/time`), and what is
// computed is the same. The shipped server's tests (`shipped`: test/shipped, whose hostile
// suites assert latency) and a benchmark's baseline (`bin`) run with Node's defaults, as users do.
// TE_CHILD_V8=default turns the flag off (to measure a change against it in the same conditions).
export const CHILD_NODE_FLAGS: readonly string[] = process.env.TE_CHILD_V8 === 'default' ? [] : ['--liftoff-only'];

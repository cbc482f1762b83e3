// A CPU quota per process through the cgroup v1 `cpu` controller (or v2's cpu.max), for the
// scale-out bench on machines with too few cores to give each server process a core of its own:
// each server is held to the same fraction of a core, so "two processes vs one" measures whether a
// second replica adds throughput (no shared bottleneck in the database, Redis or the limiter),
// with the load generator, proxy, database and Redis free to use the rest of the machine.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface CpuQuota {
  /** Moves a process (all its threads) under the quota. */
  add(pid: number): void;
  /** Removes the group; its processes must have exited. */
  remove(): void;
}

const V1 = '/sys/fs/cgroup/cpu';
const V2 = ['/sys/fs/cgroup/unified', '/sys/fs/cgroup'];

/** A group holding its processes to `cores` of one core (e.g. 0.3), or a reason why none can be made here. */
export function cpuQuota(name: string, cores: number): CpuQuota | string {
  // A short period: a server that used up its quota stalls at most the rest of 10 ms, not of 100 ms
  // (with a closed-loop load generator, long stalls leave the other server without work).
  const period = 10_000;
  const quota = Math.max(1_000, Math.round(cores * period));
  try {
    if (existsSync(path.join(V1, 'cpu.cfs_quota_us'))) {
      const dir = path.join(V1, name);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(period));
      writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quota));
      return { add: (pid) => writeFileSync(path.join(dir, 'cgroup.procs'), String(pid)), remove: () => rmdirSync(dir) };
    }
    // cgroup v2: beside v1 (hybrid, /sys/fs/cgroup/unified) or alone (/sys/fs/cgroup); the cpu
    // controller must be enabled for the children of the parent group.
    for (const root of V2) {
      if (!existsSync(path.join(root, 'cgroup.controllers')) || !readFileSync(path.join(root, 'cgroup.controllers'), 'utf8').includes('cpu')) continue;
      if (!readFileSync(path.join(root, 'cgroup.subtree_control'), 'utf8').includes('cpu')) writeFileSync(path.join(root, 'cgroup.subtree_control'), '+cpu');
      const dir = path.join(root, name);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${period}`);
      return { add: (pid) => writeFileSync(path.join(dir, 'cgroup.procs'), String(pid)), remove: () => rmdirSync(dir) };
    }
    return 'no cgroup cpu controller is mounted';
  } catch (e) {
    return `cannot set a CPU quota here (${(e as Error).message}; it needs root)`;
  }
}

#!/usr/bin/env node
// The longer form of the cluster reliability scenario (test/reliability/cluster.reliability.spec.ts):
// two replicas of every process and their rolling restart, and a minute of write load between faults
// (SESAME_RELIABILITY_SECONDS, default 60). Needs root and iproute2, as the scenario does; its
// figures go to bench/results/cluster-reliability.json.
import { spawnSync } from 'node:child_process';

const env = {
  ...process.env,
  SESAME_RELIABILITY_SECONDS: process.env.SESAME_RELIABILITY_SECONDS ?? '60',
  SESAME_CLUSTER_REPLICAS: '2',
};
const jest = ['jest', '--selectProjects', 'reliability', '--runInBand', 'test/reliability/cluster.reliability.spec.ts'];
const run = spawnSync('npx', jest, { stdio: 'inherit', env });
process.exit(run.status ?? 1);

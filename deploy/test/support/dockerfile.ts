/** A small Dockerfile reader for the image rules the tests check (stages, users, health checks, sources). */
export interface Stage {
  name: string;
  from: string;
  user?: string;
  healthcheck?: string;
  cmd?: string;
  expose: string[];
  env: Record<string, string>;
  args: string[];
  copySources: string[];
  workspaceFlags: string[];
}

export interface Dockerfile {
  stages: Stage[];
  baseImages: string[];
  stage(name: string): Stage;
  /** A stage with what it inherits from the stages it is built FROM (user, env, health check, command, ports). */
  effective(name: string): Stage;
}

function instructions(text: string): [string, string][] {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const space = line.indexOf(' ');
      return [line.slice(0, space).toUpperCase(), line.slice(space + 1).trim()] as [string, string];
    });
}

export function parseDockerfile(text: string): Dockerfile {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const [instruction, rest] of instructions(text)) {
    const stage = stages[stages.length - 1];
    if (instruction === 'ARG' && !stage) {
      const [name, value = ''] = rest.split('=');
      globalArgs[name] = value;
    } else if (instruction === 'FROM') {
      const [image, , name] = rest.split(/\s+/);
      const from = image.replace(/\$\{(\w+)\}/g, (_, arg: string) => globalArgs[arg] ?? '');
      stages.push({
        name: name ?? String(stages.length),
        from,
        expose: [],
        env: {},
        args: [],
        copySources: [],
        workspaceFlags: [],
      });
    } else if (!stage) {
      continue;
    } else if (instruction === 'USER') stage.user = rest;
    else if (instruction === 'HEALTHCHECK') stage.healthcheck = rest.replace(/^(--\S+\s+)*/, '');
    else if (instruction === 'CMD') stage.cmd = rest;
    else if (instruction === 'EXPOSE') stage.expose.push(...rest.split(/\s+/));
    else if (instruction === 'ARG') stage.args.push(rest.split('=')[0]);
    else if (instruction === 'ENV')
      for (const [, key, value] of rest.matchAll(/(\w+)=("[^"]*"|\S+)/g)) stage.env[key] = value.replace(/^"|"$/g, '');
    else if (instruction === 'COPY' && !/--from=/.test(rest)) {
      const parts = rest.split(/\s+/).filter((part) => !part.startsWith('--'));
      stage.copySources.push(...parts.slice(0, -1));
    } else if (instruction === 'RUN' && /npm ci/.test(rest)) {
      stage.workspaceFlags = [...rest.matchAll(/-w (\S+)/g)].map(([, workspace]) => workspace);
    }
  }
  const byName = (name: string) => {
    const found = stages.find((stage) => stage.name === name);
    if (!found) throw new Error(`no stage ${name}`);
    return found;
  };
  const effective = (name: string): Stage => {
    const stage = byName(name);
    const parentName = stages.find((candidate) => candidate.name === stage.from)?.name;
    if (!parentName) return stage;
    const parent = effective(parentName);
    return {
      ...stage,
      user: stage.user ?? parent.user,
      healthcheck: stage.healthcheck ?? parent.healthcheck,
      cmd: stage.cmd ?? parent.cmd,
      expose: stage.expose.length ? stage.expose : parent.expose,
      env: { ...parent.env, ...stage.env },
    };
  };
  const baseImages = stages.map((stage) => stage.from).filter((from) => !stages.some((stage) => stage.name === from));
  return { stages, baseImages, stage: byName, effective };
}

import type { Operation } from '@sesame/contracts';
import { cellsOf, describe } from './authorization-cells';
import type { Cell } from './authorization-cells';
import { environments } from './authorization-identifiers';
import { judge, send } from './authorization-judge';
import type { CellResult } from './authorization-judge';
import { generateRequests } from './authorization-requests';
import type { RequestTemplate, Slot } from './authorization-requests';
import { OwnerView, difference } from './authorization-view';
import type { View } from './authorization-view';
import { mapLimit } from './authorization-world';
import type { AuthorizationWorld } from './authorization-world';
import type { OpenApiDocument } from './openapi';

const isRead = (operation: Operation) =>
  operation.method === 'get' && (operation.auth === 'api_key' || operation.auth === 'scim');
/** A delete, or an erasure (it deletes its user too): run on what the owner's creates made. */
const isDelete = (operation: Operation) => operation.method === 'delete' || operation.path.endsWith('/erasure');
/** Deletes of an organization run last: they take everything of the organization with them. */
const deletesOrganization = (operation: Operation) => isDelete(operation) && /\{org_domain\}$/.test(operation.path);

/**
 * The authorization matrix: every operation of the table, generated in both environments, every
 * cell run and judged. Reads run in parallel (one view of the world before and after); refusals
 * at the gateway (no credentials, a missing scope) in parallel; cross-tenant writes one at a time
 * with their victim's view before and after; the owner's requests (proof that the generated
 * requests are valid) after them, deletes last, on what the owner's creates made.
 */
export class AuthorizationMatrix {
  readonly problems = new Map<string, string[]>();
  readonly templates: RequestTemplate[] = [];
  readonly results: CellResult[] = [];
  readonly phaseFailures: string[] = [];
  readonly created = new Map<string, Record<string, unknown>>();
  view!: OwnerView;
  initial!: View;

  /** The reads of organization `b`: the victim of the cross-organization cells, whose view they must not change. */
  private readonly victimReads: RequestTemplate[] = [];

  constructor(
    readonly world: AuthorizationWorld,
    readonly operations: Operation[],
    document: OpenApiDocument,
  ) {
    for (const operation of operations)
      for (const env of environments) {
        const generated = generateRequests(world, document, operation, { env, org: 'a' });
        this.templates.push(...generated.templates);
        if (generated.problems.length > 0)
          this.problems.set(
            operation.operationId,
            generated.problems.map((text) => `${env}: ${text}`),
          );
        if (isRead(operation))
          this.victimReads.push(...generateRequests(world, document, operation, { env, org: 'b' }).templates);
      }
  }

  async run(log: (line: string) => void): Promise<void> {
    this.view = OwnerView.of(this.world, [...this.templates, ...this.victimReads]);
    this.initial = await this.view.settled();
    const cells = this.templates.flatMap((template) => cellsOf(this.world, template));
    this.results.push(...cells.filter((cell) => cell.notApplicable).map((cell) => ({ cell, outcome: 'n/a' as const })));
    const runnable = cells.filter((cell) => !cell.notApplicable);
    const reads = runnable.filter((cell) => isRead(cell.template.operation));
    const writes = runnable.filter((cell) => !isRead(cell.template.operation));
    const at = (started: number) => `${((Date.now() - started) / 1000).toFixed(1)} s`;
    let started = Date.now();
    await this.inParallel('reads', reads);
    log(`reads: ${reads.length} cells in ${at(started)}`);
    started = Date.now();
    await this.inParallel(
      'refusals at the gateway',
      writes.filter((cell) => cell.column === 'a' || cell.column === 'c'),
    );
    const crossTenant = writes.filter((cell) => cell.column === 'b' || cell.column === 'd');
    const owners = writes.filter((cell) => cell.column === 'owner');
    await this.oneByOne(crossTenant.filter((cell) => !isDelete(cell.template.operation)));
    log(`writes: ${writes.length - owners.length} cells in ${at(started)}`);
    started = Date.now();
    await this.asOwner(owners.filter((cell) => !isDelete(cell.template.operation)));
    const deletes = crossTenant.filter((cell) => isDelete(cell.template.operation));
    await this.oneByOne(deletes.filter((cell) => !deletesOrganization(cell.template.operation)));
    const ownerDeletes: Cell[] = [];
    for (const cell of owners.filter((candidate) => isDelete(candidate.template.operation)))
      ownerDeletes.push(await this.onCreated(cell));
    await this.asOwner(ownerDeletes);
    await this.oneByOne(deletes.filter((cell) => deletesOrganization(cell.template.operation)));
    log(`owner's requests and deletes in ${at(started)}`);
  }

  /** Cells that cannot change anything when they are right, sent together: one view before and after for all of them. */
  private async inParallel(phase: string, cells: Cell[]): Promise<void> {
    const before = await this.view.readAll();
    const sent = await mapLimit(cells, 6, (cell) => send(this.world, cell));
    const changed = difference(before, await this.view.readAll());
    this.results.push(...(await mapLimit(cells, 6, (cell, index) => judge(this.world, cell, sent[index]!, ''))));
    if (changed) this.phaseFailures.push(`${phase} changed what the owners can read:\n    ${changed}`);
  }

  /**
   * Cells that could change their victim's state if wrong: one at a time, grouped by victim, the
   * victim's view read after each (the view after one is the view before the next); the requests
   * of unknown values they are compared with are sent after the group.
   */
  private async oneByOne(cells: Cell[]): Promise<void> {
    const groups = new Map<string, Cell[]>();
    for (const cell of cells) groups.set(describe(cell.victim), [...(groups.get(describe(cell.victim)) ?? []), cell]);
    for (const group of groups.values()) {
      let before = await this.view.read(group[0]!.victim);
      const sent: { cell: Cell; sent: Awaited<ReturnType<typeof send>>; changed: string }[] = [];
      for (const cell of group) {
        const answer = await send(this.world, cell);
        const after = await this.view.read(cell.victim);
        sent.push({ cell, sent: answer, changed: difference(before, after) });
        before = after;
      }
      for (const { cell, sent: answer, changed } of sent) this.results.push(await judge(this.world, cell, answer, changed));
    }
  }

  private async asOwner(cells: Cell[]): Promise<void> {
    for (const cell of cells) {
      if (cell.notApplicable) {
        this.results.push({ cell, outcome: 'n/a' });
        continue;
      }
      const sent = await this.sendAsOwner(cell.template, cell.slots);
      this.results.push(await judge(this.world, cell, sent, ''));
    }
  }

  /** The owner's request; what a create makes is kept for the delete of its collection. */
  private async sendAsOwner(template: RequestTemplate, slots: Slot[]) {
    const sent = await send(this.world, { template, column: 'owner', name: 'owner', slots, victim: template.context }, slots);
    if (template.operation.method === 'post' && sent.answer.status === 201 && typeof sent.answer.json === 'object')
      this.created.set(`${template.context.env} ${template.operation.path}`, sent.answer.json as Record<string, unknown>);
    return sent;
  }

  /**
   * A delete by its owner targets what the owner's create of the same collection made (made now
   * if it was not yet): the world's resources stay for the other cells.
   */
  private async onCreated(cell: Cell): Promise<Cell> {
    const { operation, context } = cell.template;
    const target = [...cell.slots]
      .reverse()
      .find((slot) => slot.role === 'identifier' || (slot.role === 'anchor' && slot.in === 'path'));
    const collection =
      target?.in === 'path' ? operation.path.slice(0, operation.path.lastIndexOf(`/{${target.name}}`)) : operation.path;
    const create = this.templates.find(
      (template) =>
        template.operation.method === 'post' && template.operation.path === collection && template.context.env === context.env,
    );
    if (create && !this.created.has(`${context.env} ${collection}`)) await this.sendAsOwner(create, create.slots);
    const created = this.created.get(`${context.env} ${collection}`);
    if (!target || !created) return { ...cell, notApplicable: 'no create of its collection made anything to delete' };
    const field = target.name === 'org_domain' ? 'domain' : target.name in created ? target.name : 'id';
    const slots = cell.slots.map((slot): Slot => (slot === target ? { ...slot, value: String(created[field]) } : slot));
    return { ...cell, slots };
  }

  failuresOf(operationId: string): CellResult[] {
    return this.results.filter(
      (result) =>
        result.outcome === 'fail' && result.cell.template.operation.operationId === operationId && result.cell.column !== 'owner',
    );
  }

  /** What keeps the matrix from proving anything about an operation: a request it cannot generate, an owner's request refused, a read that fails. */
  guard(): string[] {
    const unresolved = [...this.problems].map(([operationId, problems]) => `${operationId}: ${problems.join('; ')}`);
    const refused = this.results
      .filter((result) => result.cell.column === 'owner' && result.outcome !== 'pass')
      .map(
        (result) =>
          `${result.cell.template.operation.operationId}: the owner's request ${result.outcome === 'n/a' ? 'was not made' : 'is refused'}: ${result.request ?? result.cell.name} → ${result.answer ?? ''}`,
      );
    const unreadable = [...this.initial]
      .filter(([, text]) => !text.startsWith('200 '))
      .map(([key, text]) => `${key}: read answers ${text.slice(0, 200)}`);
    return [
      ...this.world.problems.map((problem) => `world: ${problem}`),
      ...unresolved,
      ...refused,
      ...unreadable,
      ...this.phaseFailures,
    ];
  }
}

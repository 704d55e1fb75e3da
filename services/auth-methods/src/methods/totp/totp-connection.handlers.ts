import type { OperationInput, getTotpConnection, updateTotpConnection } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { totpConnectionKey } from './projections/totp.projection';
import { totpConnectionAggregate } from './totp.aggregates';
import type { TotpDeps } from './totp.deps';
import { connectionOf, tenantOf } from './totp-scope';

export function getTotpConnectionHandler(deps: TotpDeps) {
  return async ({ params }: OperationInput<typeof getTotpConnection>, context: RequestContext) =>
    ok(await connectionOf(deps, await tenantOf(deps, params.org_domain, context)));
}

export function updateTotpConnectionHandler(deps: TotpDeps) {
  return async ({ params, body }: OperationInput<typeof updateTotpConnection>, context: RequestContext) => {
    const { name: _name, ...tenant } = await tenantOf(deps, params.org_domain, context);
    const { state } = await deps.runtime
      .aggregate(totpConnectionAggregate)
      .handle(
        totpConnectionKey(tenant.environment, tenant.organization_id),
        { type: 'UpdateTotpConnection', data: { tenant, changes: body, at: deps.now().toISOString() } },
        deps.runtime.metadata(context),
      );
    return ok(state.connection);
  };
}

import type { OperationInput, getTotpConnection, updateTotpConnection } from '@sesame/contracts';
import { handleCommand, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { totpConnectionDecider } from './domain/totp-connection.decider';
import { totpConnectionStream } from './projections/totp.projection';
import type { TotpDeps } from './totp.deps';
import { connectionOf, tenantOf } from './totp-scope';

export function getTotpConnectionHandler(deps: TotpDeps) {
  return async ({ params }: OperationInput<typeof getTotpConnection>, context: RequestContext) =>
    ok(await connectionOf(deps, await tenantOf(deps, params.org_domain, context)));
}

export function updateTotpConnectionHandler(deps: TotpDeps) {
  return async ({ params, body }: OperationInput<typeof updateTotpConnection>, context: RequestContext) => {
    const { name: _name, ...tenant } = await tenantOf(deps, params.org_domain, context);
    const { state } = await handleCommand(
      deps.runtime.commandDeps(),
      totpConnectionDecider,
      totpConnectionStream(tenant.environment, tenant.organization_id),
      { type: 'UpdateTotpConnection', data: { tenant, changes: body, at: deps.now().toISOString() } },
      deps.runtime.metadata(context),
    );
    return ok(state.connection);
  };
}

export { createGateway } from './gateway';
export { gatewayConfigSchema } from './config';

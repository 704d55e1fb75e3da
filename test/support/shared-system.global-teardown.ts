export { stopSharedSystem as default } from './shared-system.global-setup';

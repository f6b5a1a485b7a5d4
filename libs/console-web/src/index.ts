export * from './console-web.module';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from './security-headers';

export {
  SIGNATURE_TOLERANCE_SECONDS,
  type RawBody,
  type ReceivedHeaders,
  type VerificationFailure,
  type VerificationResult,
} from './signature-checks';
export * from './callback-signature';
export * from './standard-webhook-signature';

// The server tests' webhook receiver (a real HTTP server on a loopback port that verifies Standard
// Webhooks signatures), shared rather than copied.
export { startWebhookReceiver, type WebhookReceiver } from '../../apps/server/src/test/webhook-receiver';

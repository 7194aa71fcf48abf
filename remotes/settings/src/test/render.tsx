// The remote's screens render through the shared ui test helpers (host providers, signed-in user).
export { captureToasts, pointSdkAt, renderScreen, signIn } from '@mizan/ui/testing/render';

export function AgentBanner() {
  return null;
}

import { PageHeader } from "../../components/ui";

export function RunPage() {
  return <PageHeader title="Run" />;
}

import { PageHeader } from "../../components/ui";

export function RunsPage() {
  return <PageHeader title="Runs" />;
}

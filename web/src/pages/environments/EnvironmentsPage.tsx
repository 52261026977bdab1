import { PageHeader } from "../../components/ui";

export function EnvironmentsPage() {
  return <PageHeader title="Environments" />;
}

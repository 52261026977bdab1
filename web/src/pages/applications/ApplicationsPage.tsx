import { PageHeader } from "../../components/ui";

export function ApplicationsPage() {
  return <PageHeader title="Applications" />;
}

import { PageHeader } from "../../components/ui";

export function SuitesPage() {
  return <PageHeader title="Suites" />;
}

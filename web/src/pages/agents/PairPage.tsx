import { PageHeader } from "../../components/ui";

export function PairPage() {
  return <PageHeader title="Approve a computer" />;
}

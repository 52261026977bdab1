import { Link } from "react-router";
import { PageHeader } from "../components/ui";

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no page at this address. Go to the <Link to="/">dashboard</Link> or the <Link to="/tests">tests</Link>.
      </p>
    </>
  );
}

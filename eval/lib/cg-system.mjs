// cg as a system under evaluation: a fresh index of the checkout, then the task's description as a query.
export function cgSystem() {
  return async () => {
    throw new Error('cg query is not implemented yet');
  };
}

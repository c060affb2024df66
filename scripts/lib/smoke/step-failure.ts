/** A step failed for a reason an operator can act on: the message is printed as it is, after "<step>: ". */
export class StepFailure extends Error {}

import { EXPRESSION_DISPLAY_LENGTH } from '@guardian/contract';

/** The table's expression: cut to 70 characters plus an ellipsis (the tooltip holds the full text). */
export function cutExpression(expression: string): string {
  return expression.length > EXPRESSION_DISPLAY_LENGTH
    ? `${expression.slice(0, EXPRESSION_DISPLAY_LENGTH)}...`
    : expression;
}

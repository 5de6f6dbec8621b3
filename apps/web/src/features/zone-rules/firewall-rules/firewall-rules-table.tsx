import type { CSSProperties } from 'react';
import { useState } from 'react';
import { clsx } from 'clsx';
import {
  DragDropContext,
  Draggable,
  Droppable,
  type BeforeCapture,
  type DraggableProvidedDragHandleProps,
  type DropResult,
} from '@hello-pangea/dnd';
import { GripVertical } from 'lucide-react';
import { FIREWALL_ACTION_LABELS, type FirewallRule, type FirewallRuleAction } from '@guardian/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { RuleButtons } from '../rules-tab';
import {
  Table,
  TableActionsCell,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
  tableCellPaddingClassName,
  TableRows,
} from '../../../components/ui/table';
import { Tooltip } from '../../../components/ui/tooltip';
import { cutExpression } from './expression-display';

/** Stopping actions red, challenges yellow, letting through green, the rest quiet. */
const ACTION_TONES: Record<FirewallRuleAction, BadgeTone> = {
  block: 'red',
  challenge: 'yellow',
  js_challenge: 'yellow',
  managed_challenge: 'yellow',
  allow: 'green',
  skip: 'blue',
  log: 'grey',
};

const COLUMNS = ['Priority', 'Description', 'Action', 'Expression', 'Status', 'Actions'] as const;

interface FirewallRulesTableProps {
  /** Undefined while the first load runs. */
  rules: FirewallRule[] | undefined;
  /** A new order is being saved: the table dims and no drag starts. */
  saving: boolean;
  /** The id of the rule whose status is being changed. */
  togglingId: string | null;
  onMove: (from: number, to: number) => void;
  onToggle: (rule: FirewallRule) => void;
  onEdit: (rule: FirewallRule) => void;
  onDelete: (rule: FirewallRule) => void;
}

/**
 * The firewall rules, draggable by their priority and description cells (@hello-pangea/dnd with its
 * defaults, which are the spec's drag constants). The priority cell is the keyboard handle: Space
 * lifts the rule, the arrow keys move it, Space drops it, Escape cancels.
 */
export function FirewallRulesTable({
  rules,
  saving,
  togglingId,
  onMove,
  onToggle,
  onEdit,
  onDelete,
}: FirewallRulesTableProps) {
  // A dragged row leaves the table's layout; its cells keep the widths they had when the drag began.
  // A card (phone) needs none of this: it is a block that keeps its own layout. Null: no widths to keep.
  const [columnWidths, setColumnWidths] = useState<number[] | null>(null);

  const measureColumns = ({ draggableId }: BeforeCapture) => {
    const row = document.querySelector<HTMLTableRowElement>(
      `tr[data-rfd-draggable-id="${CSS.escape(draggableId)}"]`,
    );
    const asTable = row && getComputedStyle(row).display === 'table-row';
    setColumnWidths(asTable ? Array.from(row.cells, (cell) => cell.getBoundingClientRect().width) : null);
  };

  const handleDragEnd = ({ source, destination }: DropResult) => {
    if (!destination || destination.index === source.index) return;
    onMove(source.index, destination.index);
  };

  return (
    <DragDropContext onBeforeCapture={measureColumns} onDragEnd={handleDragEnd}>
      <Table caption="Firewall rules" busy={saving}>
        <TableHead>
          {COLUMNS.map((column, index) => (
            <TableHeaderCell
              key={column}
              className={clsx(index === 0 && 'w-24', index === COLUMNS.length - 1 && 'text-right')}
            >
              {column}
            </TableHeaderCell>
          ))}
        </TableHead>
        <Droppable droppableId="firewall-rules">
          {(droppable) => (
            <TableBody ref={droppable.innerRef} {...droppable.droppableProps}>
              <TableRows
                colSpan={COLUMNS.length}
                loadingText="Loading Firewall Rules..."
                rows={rules}
                empty="No firewall rules found."
              >
                {(rule, index) => (
                  <Draggable key={rule.id} draggableId={rule.id} index={index} isDragDisabled={saving}>
                    {(draggable, snapshot) => (
                      <TableRow
                        ref={draggable.innerRef}
                        {...draggable.draggableProps}
                        style={
                          snapshot.isDragging && columnWidths
                            ? { ...draggable.draggableProps.style, display: 'table', tableLayout: 'fixed' }
                            : draggable.draggableProps.style
                        }
                        className={clsx(snapshot.isDragging && 'bg-surface shadow-xl ring-2 ring-brand/40')}
                      >
                        <FirewallRuleCells
                          rule={rule}
                          handleProps={draggable.dragHandleProps}
                          columnWidths={snapshot.isDragging ? columnWidths : null}
                          toggling={togglingId === rule.id}
                          onToggle={onToggle}
                          onEdit={onEdit}
                          onDelete={onDelete}
                        />
                      </TableRow>
                    )}
                  </Draggable>
                )}
              </TableRows>
              {droppable.placeholder}
            </TableBody>
          )}
        </Droppable>
      </Table>
    </DragDropContext>
  );
}

interface FirewallRuleCellsProps {
  rule: FirewallRule;
  handleProps: DraggableProvidedDragHandleProps | null;
  /** While the row is dragged: the widths its cells keep. */
  columnWidths: number[] | null;
  toggling: boolean;
  onToggle: (rule: FirewallRule) => void;
  onEdit: (rule: FirewallRule) => void;
  onDelete: (rule: FirewallRule) => void;
}

function FirewallRuleCells({
  rule,
  handleProps,
  columnWidths,
  toggling,
  onToggle,
  onEdit,
  onDelete,
}: FirewallRuleCellsProps) {
  const widthOf = (column: number): CSSProperties | undefined =>
    columnWidths?.[column] ? { width: columnWidths[column] } : undefined;
  const cut = cutExpression(rule.filter.expression);
  // On a card the cell carries the padding, beside the label.
  const handleClassName = clsx(
    'block cursor-grab select-none active:cursor-grabbing cards:p-0',
    tableCellPaddingClassName,
  );

  return (
    <>
      {/* flush: the handle itself carries the cell's padding, so all of the cell grabs the row. */}
      <TableCell label={COLUMNS[0]} flush style={widthOf(0)}>
        <div
          {...handleProps}
          aria-label={`Priority ${rule.priority}: ${rule.description}. Drag to reorder`}
          className={clsx(handleClassName, 'flex items-center gap-2 font-medium tabular-nums')}
        >
          <GripVertical aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
          {rule.priority}
        </div>
      </TableCell>
      <TableCell label={COLUMNS[1]} flush style={widthOf(1)}>
        {/* A second place to grab the row with the mouse or a finger; the keyboard uses the priority. */}
        <div
          {...handleProps}
          role={undefined}
          tabIndex={-1}
          aria-describedby={undefined}
          className={clsx(handleClassName, 'min-w-36 font-medium')}
        >
          {rule.description}
        </div>
      </TableCell>
      <TableCell label={COLUMNS[2]} style={widthOf(2)}>
        <Badge tone={ACTION_TONES[rule.action]}>{FIREWALL_ACTION_LABELS[rule.action]}</Badge>
      </TableCell>
      <TableCell label={COLUMNS[3]} className="min-w-40" style={widthOf(3)}>
        {cut === rule.filter.expression ? (
          <code className="font-mono text-xs break-words text-ink-muted">{cut}</code>
        ) : (
          <Tooltip content={<code className="font-mono">{rule.filter.expression}</code>}>
            <code tabIndex={0} className="font-mono text-xs break-words text-ink-muted">
              {cut}
            </code>
          </Tooltip>
        )}
      </TableCell>
      <TableCell label={COLUMNS[4]} style={widthOf(4)}>
        <Badge tone={rule.paused ? 'grey' : 'green'}>{rule.paused ? 'Paused' : 'Active'}</Badge>
      </TableCell>
      <TableActionsCell label={COLUMNS[5]} align="end" style={widthOf(5)}>
        <RuleButtons
          toggling={toggling}
          onToggle={() => onToggle(rule)}
          onEdit={() => onEdit(rule)}
          onDelete={() => onDelete(rule)}
        />
      </TableActionsCell>
    </>
  );
}

/** A link to a session (and an entry in it) that opens in the page; a plain link still works in a new tab. */

import type { ComponentChildren } from "preact";

export interface Opener {
	linkTo(session: string, entry?: string): string;
	onOpen(session: string, entry?: string): void;
}

interface Props {
	to: Opener;
	session: string;
	entry?: string;
	class?: string;
	children: ComponentChildren;
}

export function SessionLink({ to, session, entry, class: className, children }: Props) {
	return (
		<a
			class={className}
			href={to.linkTo(session, entry)}
			onClick={(e) => {
				if (e.ctrlKey || e.metaKey || e.shiftKey) return;
				e.preventDefault();
				to.onOpen(session, entry);
			}}
		>
			{children}
		</a>
	);
}

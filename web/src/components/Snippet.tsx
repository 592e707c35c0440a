/** A snippet with its «marks» as <mark>: transcript text stays text, never parsed as HTML. */

export function Snippet({ text }: { text: string }) {
	return <p class="snippet">{text.split(/[«»]/).map((part, i) => (i % 2 === 1 ? <mark>{part}</mark> : part))}</p>;
}

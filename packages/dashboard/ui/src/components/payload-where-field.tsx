import './payload-search.css';

/**
 * The jobs filters' payload condition: a path expression the server matches each payload
 * against (`$.user.id == 42`). Filled in, the jobs view becomes a bounded payload search.
 */
export function PayloadWhereField({ value }: { readonly value: string }) {
  return (
    <>
      <label class="where-field">
        Payload (JSON path)
        <input
          name="where"
          class="mono"
          defaultValue={value}
          autoComplete="off"
          spellcheck={false}
          placeholder="$.user.id == 42"
          aria-describedby="where-help"
        />
      </label>
      <span id="where-help" class="visually-hidden">
        A path from $, then optionally == != &lt; &lt;= &gt; &gt;= and a JSON value, e.g. $.email ==
        "ada@example.com"
      </span>
    </>
  );
}

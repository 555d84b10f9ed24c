#!/usr/bin/env python3
"""The DocC articles that are pages of docs/, written from them.

An article of a DocC catalogue is the same text as its page in docs/ (one place to edit: docs/), but a
link between pages is a relative `.md` link on GitHub and a `<doc:Article>` link in a catalogue. This
writes each article from its page with its links rewritten: to an article of the same catalogue as
`<doc:Name>`; to any other page as its text and the page's path in the repository (`docs/leaks.md`) (a separate catalogue's
pages are not in this one's site). `--check` fails when a written article differs from what it would be.

    python3 .ci/docc-articles.py          # write the articles
    python3 .ci/docc-articles.py --check  # CI: the committed articles are current
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# docs/ page -> (catalogue, article name)
ARTICLES = {
    "your-app.md": ("Sources/Steps/Steps.docc", "DescribeYourApp"),
    "writing-steps.md": ("Sources/Steps/Steps.docc", "WriteYourOwnSteps"),
    "swift-test.md": ("Sources/ScenarioTesting/ScenarioTesting.docc", "ScenariosInSwiftTest"),
    "object-manager.md": ("Sources/ObjectManager/ObjectManager.docc", "TheObjectManager"),
    "the-store.md": ("Sources/ObjectManager/ObjectManager.docc", "TheStore"),
    "reachability-and-the-queue.md": ("Sources/ObjectManager/ObjectManager.docc", "ReachabilityAndTheQueue"),
    "talk-to-the-api.md": ("Sources/ObjectManager/ObjectManager.docc", "TalkToTheAPI"),
}

HEADER = "<!-- Written by .ci/docc-articles.py from docs/{page}: edit that page, then run the script. -->\n\n"
LINK = re.compile(r"\[([^\]]+)\]\((?!https?:|mailto:|#)([^)\s]+?)(#[^)\s]*)?\)")


def article(page):
    catalogue, _ = ARTICLES[page]
    with open(os.path.join(ROOT, "docs", page), encoding="utf-8") as handle:
        text = handle.read()

    def rewrite(match):
        label, target, _anchor = match.group(1), match.group(2), match.group(3)
        name = os.path.normpath(os.path.join("docs", target))
        if name.startswith("docs/") and name[len("docs/"):] in ARTICLES:
            other_catalogue, other = ARTICLES[name[len("docs/"):]]
            if other_catalogue == catalogue:
                return f"<doc:{other}>"
        if target.endswith(".png") or target.endswith(".svg"):
            return label
        if label.replace("\n", " ").strip("`") == name:
            return f"`{name}`"
        return f"{label} (`{name}`)"

    # Fenced code is left as written.
    parts = re.split(r"(^```.*?^```[^\n]*$)", text, flags=re.M | re.S)
    body = "".join(part if index % 2 else LINK.sub(rewrite, part) for index, part in enumerate(parts))
    # DocC reads the title from the first line: the comment goes after it.
    title, _, rest = body.partition("\n")
    return title + "\n\n" + HEADER.format(page=page).rstrip("\n") + "\n" + rest


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for page, (catalogue, name) in sorted(ARTICLES.items()):
        path = os.path.join(ROOT, catalogue, name + ".md")
        wanted = article(page)
        current = None
        if os.path.isfile(path) and not os.path.islink(path):
            with open(path, encoding="utf-8") as handle:
                current = handle.read()
        if current == wanted:
            continue
        if check:
            stale.append(f"{catalogue}/{name}.md")
            continue
        if os.path.lexists(path):
            os.remove(path)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(wanted)
    if stale:
        print("error: DocC articles not written from their docs/ pages: " + ", ".join(stale))
        print("run: python3 .ci/docc-articles.py")
        return 1
    print(f"DocC articles: {len(ARTICLES)} {'checked' if check else 'written'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

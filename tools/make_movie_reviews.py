"""Build kerasish/datasets/data/movie_reviews.tsv.gz from the VADER corpus.

Source: the sdist of the `vaderSentiment` package on PyPI (version 3.3.2,
MIT licence, (c) 2016 C.J. Hutto), whose
`additional_resources/hutto_ICWSM_2014.tar.gz` holds
`movieReviewSnippets_GroundTruth.txt`: 10,605 sentence-level snippets of
Rotten Tomatoes reviews (from Pang & Lee's movie review data), each with the
mean sentiment rating (-4..+4) of about 20 human raters (Hutto & Gilbert,
ICWSM 2014).

The extract keeps clearly polar sentences (|mean rating| >= 0.5; label 1
when positive), draws 3,000 of each polarity with a fixed seed, and splits
them into 5,000 training and 1,000 test sentences (balanced). Run:

    pip download --no-deps --no-binary :all: vaderSentiment==3.3.2 -d /tmp/v
    python tools/make_movie_reviews.py /tmp/v/vaderSentiment-3.3.2.tar.gz
"""
import argparse
import gzip
import io
import os
import tarfile

import numpy as np

MEMBER = "hutto_ICWSM_2014/movieReviewSnippets_GroundTruth.txt"
OUT = os.path.join(os.path.dirname(__file__), "..", "kerasish", "datasets",
                   "data", "movie_reviews.tsv.gz")
PER_CLASS, TEST_PER_CLASS, SEED = 3000, 500, 20140601


def read_snippets(sdist):
    """[(rating, text)] from the nested tarball inside the sdist."""
    with tarfile.open(sdist) as outer:
        name = next(n for n in outer.getnames()
                    if n.endswith("hutto_ICWSM_2014.tar.gz"))
        inner_bytes = outer.extractfile(name).read()
    with tarfile.open(fileobj=io.BytesIO(inner_bytes)) as inner:
        raw = inner.extractfile(MEMBER).read().decode("utf-8")
    rows = []
    for line in raw.splitlines():
        _, rating, text = line.split("\t")
        rows.append((float(rating), " ".join(text.split())))
    return rows


def select(rows):
    """Seeded, balanced draw of polar sentences: (split, label, rating,
    text) rows."""
    rng = np.random.default_rng(SEED)
    out = []
    for label, keep in ((0, lambda r: r <= -0.5), (1, lambda r: r >= 0.5)):
        pool = [row for row in rows if keep(row[0])]
        picked = rng.choice(len(pool), PER_CLASS, replace=False)
        for rank, i in enumerate(picked):
            split = "test" if rank < TEST_PER_CLASS else "train"
            out.append((split, label) + pool[i])
    order = rng.permutation(len(out))
    return [out[i] for i in order]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sdist", help="vaderSentiment-3.3.2.tar.gz")
    args = parser.parse_args()
    rows = select(read_snippets(args.sdist))
    lines = ["split\tlabel\trating\ttext"] + [
        f"{split}\t{label}\t{rating:.4f}\t{text}"
        for split, label, rating, text in rows]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(OUT, "wb") as f:
        # mtime=0 keeps the file byte-identical between runs.
        f.write(gzip.compress(data, mtime=0))
    print(f"wrote {len(rows)} sentences to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()

"""`kerasish.feature_column`: TF's feature columns and `DenseFeatures`.

    age = numeric_column("age")
    age_buckets = bucketized_column(age, [18, 25, 35, 50, 65])
    party = categorical_column_with_vocabulary_list(
        "party", ["democrat", "independent", "republican"])
    wide = [age_buckets, crossed_column([age_buckets, party], 100)]
    deep = [age, embedding_column(party, dimension=4)]
    net = DenseFeatures(deep)(features)       # (batch, 1 + 4)
    logits = LinearModel(wide)(features)      # (batch, 1)

Columns read a dict of arrays by key, follow TF's semantics (names, id
assignments, hashing with FarmHash so ids equal TF's, missing values `""`
and `-1`, TF's id -1 for an out-of-vocabulary value without an OOV
bucket), and report a missing feature or a wrong dtype with the column's
name.
"""
from kerasish.feature_column.base import (  # noqa: F401
    FeatureColumn, DenseColumn, CategoricalColumn, CategoricalIds,
    FeatureCache)
from kerasish.feature_column.numeric import (  # noqa: F401
    numeric_column, bucketized_column, NumericColumn, BucketizedColumn)
from kerasish.feature_column.vocabulary import (  # noqa: F401
    categorical_column_with_vocabulary_list,
    categorical_column_with_vocabulary_file)
from kerasish.feature_column.categorical import (  # noqa: F401
    categorical_column_with_identity, categorical_column_with_hash_bucket,
    weighted_categorical_column)
from kerasish.feature_column.crossed import crossed_column  # noqa: F401
from kerasish.feature_column.dense_columns import (  # noqa: F401
    indicator_column, embedding_column)
from kerasish.feature_column.shared_embedding import (  # noqa: F401
    shared_embedding_columns, shared_embeddings, SharedEmbeddingColumn)
from kerasish.feature_column.dense_features import DenseFeatures  # noqa
from kerasish.feature_column.linear_model import LinearModel  # noqa: F401
from kerasish.feature_column.serialization import (  # noqa: F401
    serialize as serialize_feature_column,
    deserialize as deserialize_feature_column)

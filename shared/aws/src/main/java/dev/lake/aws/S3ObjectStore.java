package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link ObjectStore} on one S3 bucket and key prefix. Uploads stream through a bounded buffer of
 * {@code partSize} bytes: small objects become one PutObject at completion, larger ones a multipart
 * upload that is aborted when the upload is closed without completing (S3 lifecycle rules reap what
 * a killed process leaves). {@link #put} without overwrite is a conditional put ({@code
 * If-None-Match: *}), so concurrent publishers of one key get exactly one winner.
 */
public final class S3ObjectStore implements ObjectStore {
  /** S3's minimum part size (except the last). */
  public static final int MIN_PART_SIZE = 5 << 20;

  public static final int DEFAULT_PART_SIZE = 8 << 20;

  private final S3Client s3;
  private final String bucket;
  private final String root;
  private final int partSize;
  private final int listPageSize;

  /**
   * @param prefix key prefix inside the bucket, {@code ""} for the bucket root
   * @param partSize multipart part size and upload buffer bound (5 MiB - 512 MiB)
   * @param listPageSize keys per ListObjectsV2 page (1 - 1000)
   */
  public S3ObjectStore(S3Client s3, String bucket, String prefix, int partSize, int listPageSize) {
    this.s3 = requireNonNull(s3, "s3 is null");
    this.bucket = requireNonNull(bucket, "bucket is null");
    requireNonNull(prefix, "prefix is null");
    this.root = prefix.isEmpty() ? "" : ObjectStore.checkKey(prefix) + "/";
    if (partSize < MIN_PART_SIZE || partSize > (512 << 20)) {
      throw new IllegalArgumentException("partSize must be between 5 MiB and 512 MiB: " + partSize);
    }
    if (listPageSize < 1 || listPageSize > 1000) {
      throw new IllegalArgumentException("listPageSize must be between 1 and 1000");
    }
    this.partSize = partSize;
    this.listPageSize = listPageSize;
  }

  public S3ObjectStore(S3Client s3, String bucket, String prefix) {
    this(s3, bucket, prefix, DEFAULT_PART_SIZE, 1000);
  }

  @Override
  public Upload create(String key) {
    return new MultipartUpload(root + ObjectStore.checkKey(key));
  }

  @Override
  public boolean put(String key, byte[] bytes, boolean overwrite) {
    String k = root + ObjectStore.checkKey(key);
    try {
      s3.putObject(
          b -> {
            b.bucket(bucket).key(k);
            if (!overwrite) {
              b.ifNoneMatch("*");
            }
          },
          RequestBody.fromBytes(bytes));
      return true;
    } catch (S3Exception e) {
      if (!overwrite && (e.statusCode() == 412 || e.statusCode() == 409)) {
        return false; // 412: exists; 409: a concurrent conditional write won
      }
      throw failed("write", e);
    } catch (SdkException e) {
      throw failed("write", e);
    }
  }

  @Override
  public Optional<InputStream> find(String key) {
    String k = root + ObjectStore.checkKey(key);
    try {
      return Optional.of(s3.getObject(b -> b.bucket(bucket).key(k)));
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw failed("read", e);
    }
  }

  @Override
  public InputStream getRange(String key, long offset, long length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative range");
    }
    if (length == 0) {
      return new ByteArrayInputStream(new byte[0]);
    }
    String k = root + ObjectStore.checkKey(key);
    try {
      return s3.getObject(
          b -> b.bucket(bucket).key(k).range("bytes=" + offset + "-" + (offset + length - 1)));
    } catch (SdkException e) {
      throw failed("read", e);
    }
  }

  @Override
  public Optional<Long> size(String key) {
    String k = root + ObjectStore.checkKey(key);
    try {
      return Optional.of(s3.headObject(b -> b.bucket(bucket).key(k)).contentLength());
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      throw failed("stat", e);
    } catch (SdkException e) {
      throw failed("stat", e);
    }
  }

  @Override
  public List<String> list(String prefix) {
    requireNonNull(prefix, "prefix is null");
    List<String> keys = new ArrayList<>();
    String token = null;
    try {
      do {
        ListObjectsV2Request.Builder req =
            ListObjectsV2Request.builder()
                .bucket(bucket)
                .prefix(root + prefix)
                .maxKeys(listPageSize);
        if (token != null) {
          req.continuationToken(token);
        }
        ListObjectsV2Response page = s3.listObjectsV2(req.build());
        for (S3Object o : page.contents()) {
          keys.add(o.key().substring(root.length()));
        }
        token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      } while (token != null);
    } catch (SdkException e) {
      throw failed("list", e);
    }
    keys.sort(null);
    return keys;
  }

  @Override
  public void delete(String key) {
    String k = root + ObjectStore.checkKey(key);
    try {
      s3.deleteObject(b -> b.bucket(bucket).key(k));
    } catch (SdkException e) {
      throw failed("delete", e);
    }
  }

  private static LakeException failed(String what, Exception e) {
    return new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "Object store " + what + " failed; retry later", e);
  }

  /** A streaming upload: PutObject when small, multipart otherwise; abort on close. */
  private final class MultipartUpload extends OutputStream implements Upload {
    private final String key;
    private final byte[] buffer = new byte[partSize];
    private final List<CompletedPart> parts = new ArrayList<>();
    private int filled;
    private String uploadId;
    private boolean completed;
    private boolean closed;

    MultipartUpload(String key) {
      this.key = key;
    }

    @Override
    public OutputStream stream() {
      return this;
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (completed || closed) {
        throw new IllegalStateException("upload of " + key + " is finished");
      }
      while (len > 0) {
        int n = Math.min(len, buffer.length - filled);
        System.arraycopy(b, off, buffer, filled, n);
        filled += n;
        off += n;
        len -= n;
        if (filled == buffer.length) {
          uploadPart();
        }
      }
    }

    private void uploadPart() {
      try {
        if (uploadId == null) {
          uploadId = s3.createMultipartUpload(r -> r.bucket(bucket).key(key)).uploadId();
        }
        int number = parts.size() + 1;
        String etag =
            s3.uploadPart(
                    r -> r.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
                    RequestBody.fromBytes(java.util.Arrays.copyOf(buffer, filled)))
                .eTag();
        parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        filled = 0;
      } catch (SdkException e) {
        throw failed("upload", e);
      }
    }

    @Override
    public void complete() {
      if (completed || closed) {
        throw new IllegalStateException("upload of " + key + " is finished");
      }
      try {
        if (uploadId == null) {
          byte[] bytes = java.util.Arrays.copyOf(buffer, filled);
          s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
        } else {
          if (filled > 0) {
            uploadPart();
          }
          s3.completeMultipartUpload(
              r ->
                  r.bucket(bucket)
                      .key(key)
                      .uploadId(uploadId)
                      .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
        }
        completed = true;
      } catch (SdkException e) {
        throw failed("upload", e);
      }
    }

    @Override
    public void flush() {
      // parts are sent when the bounded buffer fills; nothing to flush earlier
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      if (!completed && uploadId != null) {
        try {
          s3.abortMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId));
        } catch (SdkException e) {
          throw failed("abort", e);
        }
      }
    }
  }
}

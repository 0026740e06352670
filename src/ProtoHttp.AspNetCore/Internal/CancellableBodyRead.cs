using System.IO.Pipelines;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Reads the request body pipe so that a deadline or cancellation stops the read through
/// <see cref="PipeReader.CancelPendingRead"/>, not through the read's own token: Kestrel's reader of a body with a
/// Content-Length stays mid-read after a read its token cancelled, and its drain of the rest of the body then fails
/// ("Reading is already in progress"), logs an Error and closes the connection. A read ended here is finished
/// (<see cref="PipeReader.AdvanceTo(SequencePosition)"/>) before it throws.
/// </summary>
internal static class CancellableBodyRead
{
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> fired, or the read was woken from outside.</exception>
    public static async ValueTask<ReadResult> ReadAsync(PipeReader reader, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        ReadResult result;
        var registration = cancellationToken.UnsafeRegister(static state => Cancel((PipeReader)state!), reader);
        try
        {
            result = await reader.ReadAsync(CancellationToken.None);
        }
        finally
        {
            // Not Dispose, which waits for a running callback: with an inline pipe scheduler this continuation can run
            // inside that callback. A callback that runs late finds the read over, or the reader gone (see Cancel).
            registration.Unregister();
        }

        if (result.IsCanceled)
        {
            reader.AdvanceTo(result.Buffer.Start);
            cancellationToken.ThrowIfCancellationRequested();
            throw new OperationCanceledException("The call ended while its request body was being read.");
        }

        return result;
    }

    /// <summary>
    /// Takes a whole body Kestrel already holds (a small one usually arrives with the headers) without an await or a
    /// registration. Anything less is left as it was, unexamined, for <see cref="ReadAsync"/> to return at once: a loop of
    /// <see cref="PipeReader.TryRead"/> would see the same unconsumed bytes again and again.
    /// </summary>
    public static bool TryReadWhole(PipeReader reader, out ReadResult result)
    {
        if (!reader.TryRead(out result))
        {
            return false;
        }

        if (result.IsCompleted && !result.IsCanceled)
        {
            return true;
        }

        reader.AdvanceTo(result.Buffer.Start);
        return false;
    }

    private static void Cancel(PipeReader reader)
    {
        try
        {
            reader.CancelPendingRead();
        }
        catch (Exception ex) when (ex is InvalidOperationException or IOException)
        {
            // The request has ended: Kestrel disposed its body reader, or the client reset the stream and the reader
            // rethrows that reset. No read is left to stop, and a throw here would escape into the deadline's timer
            // and end the process.
        }
    }
}
